// work.js - a node program for tests/cpuprofile/run.sh: two hot
// functions, one anonymous callback, run for about N ms of CPU time.
'use strict';
function sortWork(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7919) % 10007);
  return a.sort((x, y) => x - y).length;
}
function mathWork(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.sqrt(i) * Math.sin(i);
  return s;
}
function main(ms) {
  const end = process.cpuUsage().user + ms * 1000;
  let r = 0;
  while (process.cpuUsage().user < end) {
    r += sortWork(20000);
    r += mathWork(200000);
    [1, 2, 3].forEach(function () { r += mathWork(1000); });
  }
  return r;
}
main(Number(process.argv[2] || 300));
