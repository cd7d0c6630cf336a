// jit-sort.js - JavaScript that spends CPU time (not wall time) in
// sortWork, for tests/live/test-jitdump-node.sh.
// usage: node jit-sort.js CPU_SECONDS
'use strict';
const limit = Number(process.argv[2]) * 1e6;   // microseconds
const used = () => { const u = process.cpuUsage(); return u.user + u.system; };

function sortWork(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7919) % 1000);
  a.sort((x, y) => x - y);
  return a[0];
}

function otherWork(n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.sqrt(i);
  return s;
}

let acc = 0;
while (used() < limit) {
  acc += sortWork(2000);
  acc += otherWork(2000);
}
if (acc < 0) console.log(acc);
