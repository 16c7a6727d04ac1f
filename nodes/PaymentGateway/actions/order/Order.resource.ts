// The operations of this resource, one line each, in the order of their parameters; each
// exports its option, description, tool description and execute (or run). See actions/resources.ts.
export * as createPayment from './createPayment.operation';
export * as authorize from './authorize.operation';
export * as saveCard from './saveCard.operation';
export * as chargeSavedCard from './chargeSavedCard.operation';
export * as createSplitPayment from './createSplitPayment.operation';
export * as waitForPayment from './waitForPayment.operation';
