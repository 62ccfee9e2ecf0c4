// The bench's queue consumer: acknowledges every message and does nothing else. It runs in the
// service's own wrangler session, so a submit's queue send is enqueued by the local broker the way
// Cloudflare Queues takes it, while no scraping competes with the requests being measured. (With no
// consumer at all, miniflare relays each message to the dev registry and logs it as dropped, which
// costs a submit more than the send itself.)
export default {
  fetch() {
    return new Response("queue sink", { status: 404 });
  },
  queue(batch) {
    batch.ackAll();
  },
};
