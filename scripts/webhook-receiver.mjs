// A local webhook receiver for trying notifications: verifies each delivery's X-Webhook-Signature
// (HMAC-SHA256 over "<timestamp>.<raw body>", 5-minute tolerance) and prints the event.
//   npm run webhook-receiver -- --secret whsec_... [--port 8099] [--fail 2]
// --fail N answers 503 to the first N deliveries, to watch retries (and /webhooks/deliveries/).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const secret = arg("secret", process.env.WEBHOOK_SECRET);
const port = Number(arg("port", 8099));
let failuresLeft = Number(arg("fail", 0));
if (!secret) {
  console.error("webhook-receiver: pass --secret whsec_... (the secret create-webhook returned)");
  process.exit(1);
}

function verified(headers, rawBody) {
  const timestamp = String(headers["x-webhook-timestamp"] ?? "");
  const signature = String(headers["x-webhook-signature"] ?? "");
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected =
    "sha256=" + createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected));
}

createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    const ok = verified(req.headers, body);
    const event = ok ? JSON.parse(body.toString("utf8")) : null;
    const status = !ok ? 401 : failuresLeft-- > 0 ? 503 : 204;
    const summary = event
      ? `${event.event} task=${event.task_id} status=${event.task_status} reviews=${event.reviews_count}${event.reason ? ` reason=${event.reason}` : ""}`
      : "signature invalid";
    console.log(`${new Date().toISOString()} ${req.headers["x-webhook-id"] ?? "-"} ${summary} -> ${status}`);
    res.writeHead(status).end();
  });
}).listen(port, "127.0.0.1", () =>
  console.log(`webhook-receiver: http://127.0.0.1:${port}/ (signatures checked)`),
);
