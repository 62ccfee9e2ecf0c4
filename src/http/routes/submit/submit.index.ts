import { ERROR_TEXT } from "../../errors";
import { mountPost } from "../mount";
import { submitHandler } from "./submit.handlers";
import { submitRoute } from "./submit.routes";

export const mountSubmit = mountPost(submitRoute, ERROR_TEXT.submit, submitHandler);
