// The operations of this resource, one line each, in the order of their parameters; each
// exports its option, description, tool description and execute (or run). See actions/resources.ts.
export * as get from './get.operation';
export * as getMany from './getMany.operation';
export * as getPosOrder from './getPosOrder.operation';
export * as uploadDocument from './uploadDocument.operation';
