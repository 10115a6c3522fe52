// A small hand-written SVG line chart (log-log panels side by side), so the
// benchmarks need no plotting dependency.

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#555555", "#8c564b", "#e377c2"];
const W = 440;
const H = 340;
const M = { left: 64, right: 12, top: 34, bottom: 118 };

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function label(v, kind) {
  if (kind === "seconds") {
    if (v >= 1) return `${+v.toPrecision(3)} s`;
    if (v >= 1e-3) return `${+(v * 1e3).toPrecision(3)} ms`;
    return `${+(v * 1e6).toPrecision(3)} µs`;
  }
  if (kind === "bytes" || kind === undefined) {
    // Decimal units: the grid lines sit on powers of ten.
    if (v >= 1e9) return `${+(v / 1e9).toPrecision(3)} GB`;
    if (v >= 1e6) return `${+(v / 1e6).toPrecision(3)} MB`;
    if (v >= 1e3) return `${+(v / 1e3).toPrecision(3)} kB`;
    return `${+v.toPrecision(3)} B`;
  }
  return `${+v.toPrecision(3)}`;
}

function panel(p, ox) {
  const pts = p.series.flatMap((s) => s.points).filter(([x, y]) => x > 0 && y > 0);
  if (pts.length === 0) return "";
  const lx = (v) => Math.log10(v);
  const [x0, x1] = [Math.floor(lx(Math.min(...pts.map((q) => q[0])))), Math.ceil(lx(Math.max(...pts.map((q) => q[0]))))];
  const [y0, y1] = [Math.floor(lx(Math.min(...pts.map((q) => q[1])))), Math.ceil(lx(Math.max(...pts.map((q) => q[1]))))];
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const sx = (v) => ox + M.left + ((lx(v) - x0) / Math.max(1, x1 - x0)) * pw;
  const sy = (v) => M.top + ph - ((lx(v) - y0) / Math.max(1, y1 - y0)) * ph;
  const out = [];
  out.push(`<text x="${ox + M.left}" y="${M.top - 12}" font-size="13" font-weight="bold">${esc(p.title)}</text>`);
  out.push(`<rect x="${ox + M.left}" y="${M.top}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  for (let e = x0; e <= x1; e++) {
    const x = sx(10 ** e);
    out.push(`<line x1="${x}" y1="${M.top}" x2="${x}" y2="${M.top + ph}" stroke="#eee"/>`);
    out.push(`<text x="${x}" y="${M.top + ph + 14}" font-size="10" text-anchor="middle">${esc(label(10 ** e, p.x === "levels" ? "plain" : "bytes"))}</text>`);
  }
  for (let e = y0; e <= y1; e++) {
    const y = sy(10 ** e);
    out.push(`<line x1="${ox + M.left}" y1="${y}" x2="${ox + M.left + pw}" y2="${y}" stroke="#eee"/>`);
    out.push(`<text x="${ox + M.left - 4}" y="${y + 3}" font-size="10" text-anchor="end">${esc(label(10 ** e, p.yFormat))}</text>`);
  }
  out.push(`<text x="${ox + M.left + pw / 2}" y="${M.top + ph + 30}" font-size="11" text-anchor="middle">${esc(p.x)} (log)</text>`);
  for (const mark of p.marks ?? []) {
    const x = sx(mark.x);
    out.push(`<line x1="${x}" y1="${M.top}" x2="${x}" y2="${M.top + ph}" stroke="#999" stroke-dasharray="2 3"/>`);
    out.push(`<text x="${x + 3}" y="${M.top + 11}" font-size="10" fill="#666">${esc(mark.label)}</text>`);
  }
  p.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const line = s.points.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`);
    if (line.length > 0) {
      out.push(`<polyline points="${line.join(" ")}" fill="none" stroke="${color}" stroke-width="1.6"${s.dashed ? ' stroke-dasharray="5 3"' : ""}/>`);
      for (const xy of line) {
        const [x, y] = xy.split(",");
        out.push(`<circle cx="${x}" cy="${y}" r="2" fill="${color}"/>`);
      }
    }
    const ly = M.top + ph + 46 + i * 13;
    out.push(`<line x1="${ox + M.left}" y1="${ly - 4}" x2="${ox + M.left + 18}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="5 3"' : ""}/>`);
    out.push(`<text x="${ox + M.left + 24}" y="${ly}" font-size="11">${esc(s.name)}</text>`);
  });
  return out.join("\n");
}

/** `{title, panels: [{title, x, y, yFormat, series: [{name, points: [[x, y]], dashed?}], marks?}]}` → SVG text. */
export function chart({ title, panels }) {
  const width = W * panels.length;
  const height = H + 24;
  const body = panels.map((p, i) => panel(p, i * W)).join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">
<rect width="100%" height="100%" fill="white"/>
<text x="12" y="18" font-size="14">${esc(title)}</text>
<g transform="translate(0, 20)">
${body}
</g>
</svg>
`;
}
