// The Browser agents area's watch and trust parts: a batch watched live, the batch history and
// the service's capacity. Mounted by ../AgentsScreen.tsx.
export { BatchView, type TaskPlace } from "./BatchView";
export { BatchHistory } from "./BatchHistory";
export { CapacityGauge } from "./CapacityGauge";
export type { WatchTarget } from "./useBatchWatch";
