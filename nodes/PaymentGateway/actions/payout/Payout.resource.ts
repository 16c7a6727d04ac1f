// The operations of this resource, one line each, in the order of their parameters; each
// exports its option, description, tool description and execute (or run). See actions/resources.ts.
export * as bulkCreate from './bulkCreate.operation';
export * as waitForResults from './waitForResults.operation';
