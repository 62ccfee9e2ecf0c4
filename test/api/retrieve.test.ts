import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DELETE, createAccount, nest, postJson, publisherConfig, submitOk, withValue } from "../helpers/api";

const RETRIEVE = "/retrieve-task/";

let apiKey: string;
let tasks: { publisher_key: string; tasks_id: string }[];

beforeAll(async () => {
  ({ apiKey } = await createAccount({ plan: "unlimited" }));
  ({ tasks } = await submitOk(
    apiKey,
    {
      "example.com": publisherConfig("example.com"),
      "example.org": publisherConfig("example.org"),
      "example.net": publisherConfig("example.net"),
    },
    { foreign_key: "retrieve-1" },
  ));
});

function body(task = tasks[0]): Record<string, unknown> {
  return {
    api_key: apiKey,
    foreign_key: "retrieve-1",
    publisher_key: task.publisher_key,
    task_id: task.tasks_id,
  };
}

async function setTask(taskId: string, fields: Record<string, string | number | null>) {
  const columns = Object.keys(fields);
  await env.DB.prepare(`UPDATE tasks SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`)
    .bind(...Object.values(fields), taskId)
    .run();
}

describe("retrieve: unfinished tasks", () => {
  it("a queued task answers 200 with exactly the queued response_message", async () => {
    const res = await postJson(RETRIEVE, body());
    expect({ status: res.status, body: res.body }).toEqual({
      status: 200,
      body: {
        task_id: tasks[0].tasks_id,
        foreign_key: "retrieve-1",
        publisher_key: "example.com",
        response_message: [{ status: "queued", message: "Task is queued and waiting", task_status: 100 }],
      },
    });
  });

  it("a task in progress shows its progress, with its requests by route", async () => {
    await setTask(tasks[1].tasks_id, {
      status: 101,
      pages_scraped: 3,
      reviews_found: 57,
      requests_direct: 4,
      requests_browser: 1,
      requests_provider: 2,
    });
    const res = await postJson(RETRIEVE, body(tasks[1]));
    expect(res.status).toBe(200);
    expect(res.body.response_message).toEqual([
      {
        status: "in_progress",
        message: "Task is currently being processed",
        task_status: 101,
        progress: { pages_scraped: 3, reviews_found: 57, requests: { direct: 4, browser: 1, provider: 2 } },
      },
    ]);
  });

  it("a failed task gives its reason", async () => {
    await setTask(tasks[2].tasks_id, { status: 500, reason: "blocked", finished_at: Date.now() });
    const res = await postJson(RETRIEVE, body(tasks[2]));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      task_id: tasks[2].tasks_id,
      foreign_key: "retrieve-1",
      publisher_key: "example.net",
      response_message: [
        { status: "failed", message: "Task processing failed", task_status: 500, reason: "blocked" },
      ],
    });
  });
});

describe("retrieve: validation", () => {
  const cases: [string[], unknown, string[]][] = [
    [["foreign_key"], DELETE, ["This field is required."]],
    [["publisher_key"], DELETE, ["This field is required."]],
    [["task_id"], DELETE, ["This field is required."]],
    [["task_id"], 12, ["Not a valid string."]],
    [["foreign_key"], "", ["This field may not be blank."]],
    [["publisher_key"], null, ["This field may not be null."]],
    [["page"], 0, ["Ensure this value is greater than or equal to 1."]],
    [["page"], -3, ["Ensure this value is greater than or equal to 1."]],
    [["page_size"], 0, ["Ensure this value is greater than or equal to 1."]],
    [["page_size"], 1001, ["Ensure this value is less than or equal to 1000."]],
    [["page_size"], "5000", ["Ensure this value is less than or equal to 1000."]],
    [["page"], 1.5, ["A valid integer is required."]],
    [["page"], "1.5", ["A valid integer is required."]],
    [["page"], "two", ["A valid integer is required."]],
    [["page"], true, ["A valid integer is required."]],
    [["page"], [1], ["A valid integer is required."]],
    [["page"], "", ["A valid integer is required."]],
    [["page_size"], null, ["This field may not be null."]],
    [["page_size"], 1e300, ["A valid integer is required."]],
  ];

  it.each(
    cases.map(([path, value, leaf]) => [
      `${path.join(".")} = ${value === DELETE ? "(missing)" : JSON.stringify(value)}`,
      path,
      value,
      leaf,
    ]),
  )("%s", async (_name, path, value, leaf) => {
    const res = await postJson(RETRIEVE, withValue(body(), path, value));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: "Invalid request", details: nest(path, leaf) },
    });
  });

  it("every failing field is reported at once", async () => {
    const res = await postJson(RETRIEVE, { api_key: apiKey, page: 0, page_size: 1001, task_id: "" });
    expect(res.body).toEqual({
      error: "Invalid request",
      details: {
        foreign_key: ["This field is required."],
        publisher_key: ["This field is required."],
        task_id: ["This field may not be blank."],
        page: ["Ensure this value is greater than or equal to 1."],
        page_size: ["Ensure this value is less than or equal to 1000."],
      },
    });
  });

  it("integral values in the forms DRF accepts are fine, at the limits", async () => {
    for (const [page, page_size] of [
      [1, 1],
      ["2", "1000"],
      [3.0, 50],
      ["1.0", 1000],
    ]) {
      const res = await postJson(RETRIEVE, { ...body(), page, page_size });
      expect(res.status, JSON.stringify([page, page_size])).toBe(200);
    }
  });
});

describe("retrieve: not found", () => {
  it.each([
    ["foreign_key", "other-order"],
    ["publisher_key", "example.org"],
    ["task_id", "00000000-0000-0000-0000-000000000000"],
  ])("a wrong %s answers 404 naming the values", async (field, value) => {
    const request = { ...body(), [field]: value } as Record<string, string>;
    const res = await postJson(RETRIEVE, request);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: "Task not found",
      details: {
        foreign_key: `No task with foreign_key "${request.foreign_key}" and task_id "${request.task_id}"`,
        publisher_key: `No task with publisher_key "${request.publisher_key}" and task_id "${request.task_id}"`,
      },
    });
  });

  it("another account's task is not found", async () => {
    const other = await createAccount({ plan: "unlimited" });
    const res = await postJson(RETRIEVE, { ...body(), api_key: other.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("Task not found");
    // ...while its owner still sees it.
    expect((await postJson(RETRIEVE, body())).status).toBe(200);
  });
});
