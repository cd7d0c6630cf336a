function sortWork(n) {
  const a = [];
  for (let i = 0; i < n; i++) a.push((i * 7919) % 1000);
  a.sort((x, y) => x - y);
  return a[0];
}
let s = 0;
for (let k = 0; k < 200; k++) s += sortWork(2000);
console.log(s);
