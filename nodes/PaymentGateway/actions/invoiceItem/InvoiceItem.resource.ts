// The operations of this resource, one line each, in the order of their parameters; each
// exports its option, description, tool description and execute (or run). See actions/resources.ts.
export * as create from './create.operation';
export * as update from './update.operation';
export * as activate from './activate.operation';
export * as deactivate from './deactivate.operation';
export * as delete from './delete.operation';
export * as get from './get.operation';
export * as getMany from './getMany.operation';
