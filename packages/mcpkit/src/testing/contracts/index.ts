export { type AuthorizationStorePair, authorizationStoreContract } from "./authorization-store.js";
export { type ContractCase, runContract } from "./case.js";
export { type BusPair, eventBusContract } from "./event-bus.js";
export { eventStoreContract } from "./event-store.js";
export {
  type MakeSessionStores,
  type SessionStorePair,
  type SessionStoreSetup,
  sessionStoreContract,
} from "./session-store.js";
export { taskNodesContract } from "./task-nodes.js";
export { type MakeTaskStores, type TaskStorePair, taskLeaseContract, taskStoreContract } from "./task-store.js";
export { type ContractConnection, contractServer, transportContract } from "./transport.js";
