export type { Progress, RequestOptions } from "../session/connection.js";
export { Client, type ClientOptions, type ClientRequestContext, createClient } from "./client.js";
