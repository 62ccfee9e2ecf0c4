import { describe, expect, it } from "vitest";
import { createAccount, postJson, submitBody } from "./helpers/api";

describe("smoke", () => {
  it("submits and retrieves a queued task", async () => {
    const { apiKey } = await createAccount();
    const submit = await postJson("/submit/request-reviews/", submitBody(apiKey));
    expect(submit.status).toBe(201);
    const retrieve = await postJson("/retrieve-task/", {
      api_key: apiKey,
      foreign_key: "order-1",
      publisher_key: "example.com",
      task_id: submit.body.tasks_id,
    });
    expect(retrieve.status).toBe(200);
    expect(retrieve.body.response_message[0].task_status).toBe(100);
  });
  it("shows errors", async () => {
    const { apiKey } = await createAccount();
    const body: any = submitBody(apiKey, { "WWW.Yelp.com": { profile_key: "https://evil.com/x", last_review_hashes: "x", first_page_only: "maybe" }, "not a domain": {}, "example.com": { last_review_hashes: [] , first_page_only: true} });
    delete body.data.business.address.street;
    body.data.business.address.country = "XX";
    body.job = "nope";
    const r = await postJson("/submit/request-reviews", body);
    console.log(JSON.stringify(r.body, null, 1), [...r.headers]);
  });
});
