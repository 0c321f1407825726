// The one rule for who is calling lives beside the client key, where middleware can reach it too.
export { principalOf } from "../connection/client-key.js";
