// pg-boss's SQL statements, which it ships untyped at this path: the job runner recognises by them the
// statements pg-boss sends without awaiting their answer.
declare module 'pg-boss/src/plans' {
  export function completeJobs(schema: string): string;
  export function failJobsById(schema: string): string;
}
