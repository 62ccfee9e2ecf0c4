import { submitRequest } from "../../../app/tasks/submit";
import { endpoint } from "../../endpoint";
import { ERROR_TEXT, UNAUTHORIZED_MESSAGE } from "../../errors";
import { SubmitRequestSchema } from "../../schemas/submit";

export const submitHandler = endpoint(
  {
    errorText: ERROR_TEXT.submit,
    schema: SubmitRequestSchema,
    apiKeyPath: ["data", "api_key"],
    unauthorizedMessage: UNAUTHORIZED_MESSAGE.submit,
    tasksOf: (input) => input.data.publishers.length,
  },
  // The request's session starts at the primary; its bookmark goes back in X-D1-Bookmark so the
  // client's next retrieve can ask for a replica that already has these rows.
  async (c, input, account, d1) => {
    const { requestId, tasks } = await submitRequest(
      c.env,
      account.id,
      input,
      new URL(c.req.url).origin,
      d1.db,
    );
    const first = tasks[0];
    return c.json(
      {
        status: "success" as const,
        tasks_id: first.tasks_id,
        request_id: requestId,
        foreign_key: input.data.foreign_key,
        publisher_key: first.publisher_key,
        tasks,
      },
      201,
    );
  },
);
