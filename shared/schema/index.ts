export * from './common.ts';
export * from './config.ts';
export * from './event.ts';
export * from './trace.ts';
export * from './batch-result.ts';
