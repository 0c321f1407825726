export { type Inspector, type InspectorOptions, startInspector } from "./server.js";
export { describeTarget, isProtocolChoice, type ProtocolChoice, type Target } from "./target.js";
