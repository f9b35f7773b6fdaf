// Line charts over time, drawn by uPlot (static/vendor/uplot: MIT, see its README) from a table
// of numbers on the page. The table is the chart's truth: screen readers read it and people
// copy it; the chart only draws its rows. This module is imported only when a chart is about
// to be seen (static/js/stats.js), so a page without a chart never loads uPlot.
//
// A row of the source table: <tr data-t="UNIX SECONDS" data-y="NUMBER" [data-provisional="1"]>
// with the cells people read; its first link is the row's match (a replay).
import uPlot from "../vendor/uplot/uPlot.esm.js";
import {lang} from "./i18n.js";

const COLORS = {line: "#1f5f3a", provisional: "#b7791f", band: "rgba(242, 183, 5, 0.16)", accuracy: "#1c6dd0"};
const DAY = 86400;
// the date axis' steps: whole days at least (a day's label must not repeat)
const DAYS = [1, 2, 3, 7, 14, 30, 61, 91, 182, 365, 730].map((days) => days * DAY);

let cssLoaded = false;
function loadCss() {
  if (cssLoaded) return;
  cssLoaded = true;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/vendor/uplot/uPlot.min.css";
  document.head.append(link);
}

/** The rows of a chart's table: [{t, y, provisional, row}], oldest first. */
export function readTable(table) {
  return [...table.tBodies[0].rows].map((row) => ({
    t: Number(row.dataset.t), y: Number(row.dataset.y), provisional: row.dataset.provisional === "1", row,
  }));
}

/** The axes' labels in the page's language: dates (day and month; the year under the first
 * label and where it changes) and numbers ("2.400" in German). */
function axisLabels() {
  const dayMonth = new Intl.DateTimeFormat(lang, {day: "numeric", month: "short", timeZone: "UTC"});
  const year = new Intl.DateTimeFormat(lang, {year: "numeric", timeZone: "UTC"});
  const number = new Intl.NumberFormat(lang);
  const dates = (u, splits) => splits.map((seconds, i) => {
    const date = new Date(seconds * 1000);
    const first = i === 0 || year.format(date) !== year.format(new Date(splits[i - 1] * 1000));
    return first ? `${dayMonth.format(date)}\n${year.format(date)}` : dayMonth.format(date);
  });
  return {dates, numbers: (u, splits) => splits.map((value) => number.format(value))};
}

/** The provisional points as a series of their own (with the first settled point, so the
 * dashed line meets the solid one) and the settled ones: [provisional, settled]. */
function split(points) {
  const lastProvisional = points.map((p) => p.provisional).lastIndexOf(true);
  const provisional = points.map((p, i) => (i <= lastProvisional + 1 && lastProvisional >= 0 ? p.y : null));
  const settled = points.map((p, i) => (i >= lastProvisional ? p.y : null));
  if (lastProvisional < 0) return {provisional: null, settled: points.map((p) => p.y), lastProvisional};
  return {provisional, settled, lastProvisional};
}

/**
 * Draw the chart of `box` ([data-chart][data-source] with a sibling .chart-readout): the rows
 * of the table named by data-source over time. `data-chart="rating"` marks the provisional
 * period (a shaded band and a dashed line); "accuracy" is a percentage from 0 to 100.
 * Pointing at the chart (or tapping it) shows the nearest row's date, value and match link in
 * the readout below the chart. Returns the uPlot instance.
 */
export function drawChart(box) {
  loadCss();
  const table = document.getElementById(box.dataset.source);
  const points = readTable(table);
  const kind = box.dataset.chart;
  const readout = box.parentElement.querySelector(".chart-readout");
  const xs = points.map((p) => p.t);
  const series = [{}];
  const data = [xs];
  let band = null;
  if (kind === "rating") {
    const parts = split(points);
    if (parts.provisional) {
      series.push({label: "provisional", stroke: COLORS.provisional, width: 2, dash: [6, 4],
                   points: {show: true, size: 6, stroke: COLORS.provisional, fill: "#fff"}});
      data.push(parts.provisional);
      band = parts.lastProvisional;
    }
    series.push({label: "rating", stroke: COLORS.line, width: 2,
                 points: {show: true, size: 6, stroke: COLORS.line, fill: "#fff"}});
    data.push(parts.settled);
  } else {
    series.push({label: kind, stroke: COLORS.accuracy, width: 2,
                 points: {show: true, size: 6, stroke: COLORS.accuracy, fill: "#fff"}});
    data.push(points.map((p) => p.y));
  }
  const labels = axisLabels();
  const single = xs.length === 1;
  const options = {
    width: Math.max(box.clientWidth, 200),
    height: box.clientWidth < 500 ? 190 : 240,
    legend: {show: false},
    scales: {
      x: {time: true, range: single ? [xs[0] - DAY, xs[0] + DAY] : undefined},
      y: kind === "accuracy" ? {range: [0, 100]} : {},
    },
    axes: [
      {stroke: "#3c4a42", grid: {stroke: "#e3e8e5"}, ticks: {stroke: "#c9d2cc"}, values: labels.dates,
       incrs: DAYS, space: 56, size: 44},
      {stroke: "#3c4a42", grid: {stroke: "#e3e8e5"}, ticks: {stroke: "#c9d2cc"}, values: labels.numbers, size: 52},
    ],
    // the pointed point: filled with its line's colour (an empty ring looked like a gap)
    cursor: {drag: {x: false, y: false},
             points: {size: 10, fill: (u, index) => u.series[index].stroke(u, index)}},
    series,
    hooks: {
      drawClear: [(u) => {
        if (band === null) return;
        const right = band + 1 < xs.length ? (xs[band] + xs[band + 1]) / 2 : xs[band];
        const x0 = u.valToPos(xs[0], "x", true);
        const x1 = u.valToPos(right, "x", true);
        u.ctx.save();
        u.ctx.fillStyle = COLORS.band;
        u.ctx.fillRect(Math.min(x0, u.bbox.left), u.bbox.top, x1 - Math.min(x0, u.bbox.left), u.bbox.height);
        u.ctx.restore();
      }],
      setCursor: [(u) => {
        const index = u.cursor.idx;
        if (index != null && readout) show(readout, points[index]);
      }],
    },
  };
  box.replaceChildren();
  const chart = new uPlot(options, data, box);
  // a tap moves the cursor too (touch screens send no hover)
  chart.over.addEventListener("pointerdown", (event) => {
    const rect = chart.over.getBoundingClientRect();
    chart.setCursor({left: event.clientX - rect.left, top: event.clientY - rect.top});
  });
  new ResizeObserver(() => {
    const width = Math.max(box.clientWidth, 200);
    if (Math.abs(width - chart.width) > 2) chart.setSize({width, height: width < 500 ? 190 : 240});
  }).observe(box);
  if (readout) readout.textContent = readout.dataset.hint || "";
  box.dataset.drawn = "1";
  return chart;
}

/** The readout of one point: its date, its value (as the table says it) and its match link. */
function show(readout, point) {
  const cells = point.row.cells;
  const parts = [cells[0].textContent.trim(), cells[1].textContent.trim()];
  readout.replaceChildren(parts.join(" · "));
  const link = point.row.querySelector("a");
  if (link) {
    readout.append(" · ");
    readout.append(link.cloneNode(true));
  }
}
