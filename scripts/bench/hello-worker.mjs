// The bench's yardstick: the smallest Worker there is, run by the same wrangler as the service.
export default {
  fetch() {
    return new Response("Hello World!");
  },
};
