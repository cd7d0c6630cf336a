// sortWork: a JS function hot enough to be optimized, for ARGV[2] (1) s of CPU.
function sortWork(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7919) % 1000);
  a.sort((x, y) => x - y);
  return a[0];
}
const t0 = process.cpuUsage();
let s = 0;
while (process.cpuUsage(t0).user < (process.argv[2] || 1) * 1e6) s += sortWork(2000);
console.log(s > 0);
