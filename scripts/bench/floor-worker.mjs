// The bench's binding floor: a Worker with the service's compatibility settings that makes exactly
// the binding calls of each measured scenario and nothing else (no key check, limits, routing,
// validation, drizzle or answer building). Its throughput is what the service could reach on this
// toolchain if its own work cost nothing, so project ÷ floor says how much of a request is the
// service's own work beyond its round trips.
//
// - POST /submit: reads the body, one DB.batch of two inserts (a request row and a task row in the
//   service's own tables, with as many bound values as the service binds) and one queue send; answers
//   201 with a body as long as the service's.
// - POST /retrieve/<scenario>: reads the body, one prepared SELECT that returns the service's answer
//   for that scenario, stored byte for byte by the bench before the timed load; answers it as is.
// - POST /retrieve-r2/<scenario> (a completed task's page, issue 33): one prepared SELECT of the
//   answer without its reviews, then the two R2 range reads the service makes (the page's range of a
//   task index as large as the service's, and the page's reviews as JSON Lines), and the answer put
//   together from them with the reviews joined by commas, byte for byte the service's.
//
// Both go through the D1 Sessions API the way the service does (a submit starts at the primary, a
// retrieve may read a replica) and return the session's bookmark. The queue's consumer acknowledges
// every batch, like the sink consumer the service's session has.
const SETUP_PATH = "/__setup";
const ANSWER_PATH = "/__answer/";

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/") return new Response("floor");
    if (url.pathname === "/submit") {
      await request.text();
      const now = Date.now();
      const requestId = crypto.randomUUID();
      const session = env.DB.withSession("first-primary");
      await session.batch([
        session
          .prepare(
            "INSERT INTO requests (id, account_id, foreign_key, lazy, business, base_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          )
          .bind(requestId, "floor", "bench-1", 0, env.FLOOR_BUSINESS, "http://127.0.0.1", now),
        session
          .prepare(
            "INSERT INTO tasks (id, request_id, account_id, foreign_key, publisher_key, position, profile_key, profile_url, status, reason, options, cookies_enc, cursor, pages_scraped, reviews_found, files, runs, lease_token, lease_until, deadline_at, created_at, started_at, finished_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .bind(
            crypto.randomUUID(),
            requestId,
            "floor",
            "bench-1",
            "example.com",
            0,
            "https://example.com/biz/blue-door",
            null,
            100,
            null,
            '{"last_review_hashes":[],"first_page_only":true,"lazy":false}',
            null,
            null,
            0,
            0,
            "[]",
            0,
            null,
            null,
            null,
            now,
            null,
            null,
            now,
          ),
      ]);
      await env.FLOOR_QUEUE.send({ task_id: requestId, publisher_key: "example.com" });
      return new Response(env.FLOOR_SUBMIT_ANSWER, {
        status: 201,
        headers: { "Content-Type": "application/json", "X-D1-Bookmark": session.getBookmark() ?? "" },
      });
    }
    if (url.pathname.startsWith("/retrieve/")) {
      await request.text();
      const session = env.DB.withSession("first-unconstrained");
      const row = await session
        .prepare("SELECT body FROM bench_answers WHERE id = ?")
        .bind(url.pathname.slice("/retrieve/".length))
        .first();
      if (!row) return new Response("no such answer", { status: 404 });
      return new Response(row.body, {
        headers: { "Content-Type": "application/json", "X-D1-Bookmark": session.getBookmark() ?? "" },
      });
    }
    if (url.pathname.startsWith("/retrieve-r2/")) {
      await request.text();
      const id = url.pathname.slice("/retrieve-r2/".length);
      const session = env.DB.withSession("first-unconstrained");
      const row = await session
        .prepare("SELECT head, tail, index_offset, index_length, data_length FROM bench_pages WHERE id = ?")
        .bind(id)
        .first();
      if (!row) return new Response("no such answer", { status: 404 });
      const index = await env.FLOOR_FILES.get(`${id}/index`, {
        range: { offset: row.index_offset, length: row.index_length },
      });
      await index.arrayBuffer();
      const data = await env.FLOOR_FILES.get(`${id}/data`, { range: { offset: 0, length: row.data_length } });
      const lines = await data.text();
      return new Response(`${row.head}[${lines.slice(0, -1).replaceAll("\n", ",")}]${row.tail}`, {
        headers: { "Content-Type": "application/json", "X-D1-Bookmark": session.getBookmark() ?? "" },
      });
    }
    // Set-up outside the timed load: the account the submit rows belong to, and the answers to serve.
    if (url.pathname === SETUP_PATH && request.method === "POST") {
      await env.DB.batch([
        env.DB.prepare("CREATE TABLE IF NOT EXISTS bench_answers (id TEXT PRIMARY KEY, body TEXT NOT NULL)"),
        env.DB.prepare(
          "CREATE TABLE IF NOT EXISTS bench_pages (id TEXT PRIMARY KEY, head TEXT NOT NULL, tail TEXT NOT NULL, index_offset INTEGER NOT NULL, index_length INTEGER NOT NULL, data_length INTEGER NOT NULL)",
        ),
        env.DB.prepare(
          "INSERT OR IGNORE INTO accounts (id, name, plan, created_at) VALUES ('floor', 'floor', 'unlimited', ?)",
        ).bind(Date.now()),
      ]);
      return new Response("ok");
    }
    if (url.pathname.startsWith(ANSWER_PATH) && request.method === "PUT") {
      const id = url.pathname.slice(ANSWER_PATH.length);
      const body = await request.text();
      await env.DB.prepare("INSERT OR REPLACE INTO bench_answers (id, body) VALUES (?, ?)")
        .bind(id, body)
        .run();
      if (url.searchParams.has("index_offset")) {
        // The page's reviews as stored lines, and an index of the size the service reads from.
        const start = body.indexOf(',"reviews":[') + ',"reviews":'.length;
        const end = body.indexOf(',"pagination":', start);
        const lines = JSON.parse(body.slice(start, end))
          .map((r) => JSON.stringify(r) + "\n")
          .join("");
        const offset = Number(url.searchParams.get("index_offset"));
        const length = Number(url.searchParams.get("index_length"));
        await env.FLOOR_FILES.put(`${id}/data`, lines);
        await env.FLOOR_FILES.put(`${id}/index`, new Uint8Array(offset + length));
        await env.DB.prepare(
          "INSERT OR REPLACE INTO bench_pages (id, head, tail, index_offset, index_length, data_length) VALUES (?, ?, ?, ?, ?, ?)",
        )
          .bind(
            id,
            body.slice(0, start),
            body.slice(end),
            offset,
            length,
            new TextEncoder().encode(lines).length,
          )
          .run();
      }
      return new Response("ok");
    }
    return new Response("not found", { status: 404 });
  },
  queue(batch) {
    batch.ackAll();
  },
};
