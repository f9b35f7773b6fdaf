// The profile's statistics (templates/_stats.html): each chart is drawn once it comes near the
// screen, by static/js/charts.js, which loads uPlot (about 50 KB compressed) then: a profile
// opened and left without scrolling to a chart never loads it. Without JavaScript (or before
// it), every chart's numbers are in the table beside it.
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
  }, {rootMargin: "200px 0px"});
  boxes.forEach((box) => observer.observe(box));
} else {
  boxes.forEach(draw);
}
