/** The caller of a protected route, as the JWT guard resolved it for this request. */
export interface AuthUser {
  id: number;
  email: string;
  isSuperuser: boolean;
  sessionId: string;
}
