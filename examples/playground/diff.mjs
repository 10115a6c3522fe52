// A line diff of two texts for a side-by-side view: the longest common
// subsequence of lines (after the common head and tail are set aside), with
// each run of removed lines paired row by row with the added lines that
// replace it.

/** Past this many cells the middle is shown as replaced outright rather than searched (time and memory stay bounded). */
export const MAX_CELLS = 4_000_000;

/**
 * Rows `{left, right}` of line indices (either may be null), in order; a row
 * with both is unchanged when the lines are equal and changed otherwise.
 * Every line of both sides appears exactly once, in order. The array's
 * `coarse` is true when the middle was past MAX_CELLS and shown as replaced.
 */
export function diffLines(a, b) {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const rows = [];
  for (let i = 0; i < head; i++) rows.push({ left: i, right: i });
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const coarse = n * m > MAX_CELLS;
  const ops = coarse ? [...Array(n).fill("-"), ...Array(m).fill("+")] : lcsOps(a, b, head, n, m);
  let i = head;
  let j = head;
  let dels = [];
  let adds = [];
  const flush = () => {
    const k = Math.max(dels.length, adds.length);
    for (let r = 0; r < k; r++) rows.push({ left: dels[r] ?? null, right: adds[r] ?? null });
    dels = [];
    adds = [];
  };
  for (const op of ops) {
    if (op === "=") {
      flush();
      rows.push({ left: i++, right: j++ });
    } else if (op === "-") dels.push(i++);
    else adds.push(j++);
  }
  flush();
  for (let t = 0; t < tail; t++) rows.push({ left: a.length - tail + t, right: b.length - tail + t });
  rows.coarse = coarse;
  return rows;
}

// The classic table: lcs[x][y] is the longest common subsequence of
// a[x..] and b[y..] (of the middle parts); walking it forward gives the ops.
function lcsOps(a, b, off, n, m) {
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let x = n - 1; x >= 0; x--) {
    for (let y = m - 1; y >= 0; y--) {
      lcs[x * width + y] = a[off + x] === b[off + y] ? lcs[(x + 1) * width + y + 1] + 1 : Math.max(lcs[(x + 1) * width + y], lcs[x * width + y + 1]);
    }
  }
  const ops = [];
  let x = 0;
  let y = 0;
  while (x < n && y < m) {
    if (a[off + x] === b[off + y]) {
      ops.push("=");
      x++;
      y++;
    } else if (lcs[(x + 1) * width + y] >= lcs[x * width + y + 1]) {
      ops.push("-");
      x++;
    } else {
      ops.push("+");
      y++;
    }
  }
  while (x++ < n) ops.push("-");
  while (y++ < m) ops.push("+");
  return ops;
}
