// A tiny dev server for trying background runs: prints its port, serves "ok".
const http = require('node:http');

const server = http.createServer((req, res) => res.end('ok\n'));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`dev server listening on http://127.0.0.1:${server.address().port}`);
});
