// The deal's curve of the post-game analysis (static/js/analysis.js): the seat's expected final
// score after each of its decisions in one deal (the analysis document's rounds[].curve), the
// best choice's beside it, the costly moments marked; clicking a point goes there in the
// replay. Drawn with uPlot (static/vendor/uplot/, see its README), loaded only when a curve is
// drawn: the script and its stylesheet are fetched on the first call.
import {t} from "./i18n.js";

let loading = null;

/** uPlot, loaded once (its CSS with it). */
function uPlotClass() {
  if (!loading) {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = "/static/vendor/uplot/uPlot.min.css";
    document.head.append(css);
    loading = import("/static/vendor/uplot/uPlot.esm.js").then((module) => module.default);
  }
  return loading;
}

const HEIGHT = 170;

/** The series of a curve: x (1, 2, …), the choice made, the best choice, the costly points. */
export function curveData(curve, lowerIsBetter) {
  const sign = lowerIsBetter ? -1 : 1;
  return [
    curve.map((_p, i) => i + 1),
    curve.map((p) => p.value),
    curve.map((p) => Math.round((p.value + sign * p.cost) * 1000) / 1000),
    curve.map((p) => (p.costly ? p.value : null)),
  ];
}

/** Draw ``curve`` into ``box`` (replacing what was there). opts: {unit (words), lowerIsBetter,
 * where(point) (words for the point's moment: "Trick 7"), pick(point) (a click on it), number
 * (a function formatting a value)}. Resolves to the uPlot chart. */
export async function drawCurve(box, curve, opts) {
  const UPlot = await uPlotClass();
  box.replaceChildren();
  const number = opts.number || ((v) => String(v));
  const moment = (i) => (i == null || !curve[i] ? "" : opts.where(curve[i]));
  const chart = new UPlot({
    width: Math.max(240, box.clientWidth || 320),
    height: HEIGHT,
    scales: {x: {time: false}},
    legend: {show: true},
    cursor: {points: {size: 9}, drag: {x: false, y: false}},
    axes: [
      {label: t("Your decisions, in order"), labelSize: 18, size: 32, incrs: [1, 2, 5, 10, 20, 50, 100], stroke: "#4a4a4a",
        values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : ""))},
      {label: opts.unit, labelSize: 18, size: 46, stroke: "#4a4a4a", values: (_u, splits) => splits.map(number)},
    ],
    series: [
      {label: t("Moment"), value: (_u, _v, _s, i) => moment(i)},
      {label: t("Your choice"), stroke: "#0b5394", width: 2, points: {show: true, size: 6, fill: "#0b5394"},
        value: (_u, v) => (v == null ? "–" : number(v))},
      {label: t("Best choice"), stroke: "#2f9e44", width: 1.5, dash: [5, 4], points: {show: false},
        value: (_u, v) => (v == null ? "–" : number(v))},
      {label: t("Costly moment"), stroke: "#d9480f", fill: "transparent", width: 0, paths: () => null,
        points: {show: true, size: 12, width: 2, fill: "#fff3cd", stroke: "#d9480f"},
        value: (_u, v) => (v == null ? "–" : number(v))},
    ],
  }, curveData(curve, opts.lowerIsBetter), box);
  chart.over.addEventListener("click", () => {
    const i = chart.cursor.idx;
    if (i != null && curve[i]) opts.pick(curve[i]);
  });
  chart.over.style.cursor = "pointer";
  return chart;
}
