// The profile's statistics (templates/_stats.html): each chart is drawn once a fifth of it is
// on the screen, by static/js/charts.js, which loads uPlot (about 50 KB compressed) then: a
// profile opened on a phone, where the chart is below the first screen, and left without
// scrolling to it never loads it. Without JavaScript (or before it), every chart's numbers
// are in the table beside it.
const boxes = [...document.querySelectorAll("[data-chart]")];

let charts = null;
function draw(box) {
  charts = charts || import("./charts.js");
  charts.then((module) => module.drawChart(box)).catch((error) => {
    box.dataset.drawn = "failed";
    console.warn("the chart could not be drawn", error);
  });
}

if (boxes.length && "IntersectionObserver" in window) {
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      draw(entry.target);
    }
  }, {threshold: 0.2});
  boxes.forEach((box) => observer.observe(box));
} else {
  boxes.forEach(draw);
}
