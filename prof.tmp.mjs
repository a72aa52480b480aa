import autocannon from "autocannon";
const base = "http://127.0.0.1:3008";
const jar = new Map();
const ck = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
async function post(p, body) { const r = await fetch(base + p, { method: "POST", body, redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: ck() } }); for (const l of r.headers.getSetCookie()) { const [pair] = l.split(";"); const i = pair.indexOf("="); jar.set(pair.slice(0, i), pair.slice(i + 1)); } }
await post("/quiz", ""); await post("/quiz/1", "skinType=dry"); await post("/quiz/2", "mainConcern=acne");
const r = await autocannon({ url: base + "/quiz/3", connections: 50, duration: 8, headers: { cookie: ck() } });
console.log(r.requests.average, r.latency.p99, r.non2xx);
