/** One entry of a 422 body, in the shape FastAPI/Pydantic v2 clients already parse. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
}

export type ValidationLocation = 'body' | 'query' | 'path';
