// A tiny load balancer for tests: each request (not each connection) goes to the next
// instance in turn, so a browser's consecutive requests land on different app instances.
// It adds X-Forwarded-For like a real proxy, and names the instance that answered in
// X-Glow-Instance (1, 2, ...), so a test can tell who served it.
import http from "node:http";

export function startRoundRobinProxy({ port, host = "127.0.0.1", upstreams }) {
  const agents = upstreams.map(() => new http.Agent({ keepAlive: true, maxSockets: 64 }));
  let next = 0;
  const server = http.createServer((req, res) => {
    const index = next;
    next = (next + 1) % upstreams.length;
    const target = new URL(upstreams[index]);
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        agent: agents[index],
        headers: { ...req.headers, "x-forwarded-for": forwarded },
      },
      (answer) => {
        const headers = [...answer.rawHeaders, "X-Glow-Instance", String(index + 1)];
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "Content-Type": "text/plain" });
      res.end(`proxy: instance ${index + 1} did not answer (${error.message})`);
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen({ port, host, backlog: 1024 }, () =>
      resolve({
        close: () =>
          new Promise((done) => {
            for (const agent of agents) agent.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      }),
    ),
  );
}
