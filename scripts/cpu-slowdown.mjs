// @ts-check
/**
 * The CPU slowdown that brings a host of this benchmark index to Lighthouse's mobile target, interpolated between
 * the points of Lighthouse's CPU throttling calculator (lighthouse-cpu-throttling-calculator.vercel.app, linked
 * from Lighthouse's docs/throttling.md): index 150 → 1×, 800 → 2×, 1,300 → 3×, 1,533 → 4×, and one more per 233
 * above. Below 150 the host is itself slower than the target: no slowdown.
 * @param {number} benchmarkIndex
 */
export function cpuSlowdownFor(benchmarkIndex) {
  const anchors = [
    [150, 1],
    [800, 2],
    [1300, 3],
    [1533, 4],
  ];
  if (benchmarkIndex <= anchors[0][0]) return 1;
  const above = anchors.findIndex(([index]) => index > benchmarkIndex);
  const [[x0, y0], [x1, y1]] = above === -1 ? anchors.slice(-2) : [anchors[above - 1], anchors[above]];
  return y0 + ((benchmarkIndex - x0) * (y1 - y0)) / (x1 - x0);
}
