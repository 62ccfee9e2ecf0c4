import { ERROR_TEXT } from "../../errors";
import { mountPost } from "../mount";
import { retrieveHandler } from "./retrieve.handlers";
import { retrieveRoute } from "./retrieve.routes";

export const mountRetrieve = mountPost(retrieveRoute, ERROR_TEXT.retrieve, retrieveHandler);
