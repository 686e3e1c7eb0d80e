import { RequestMethod } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { Params } from 'nestjs-pino';
import { requestLogOptions } from '../common/logging/request-log.options';
import { appConfig } from '../config/app.config';

/**
 * JSON lines for machines; on a developer's terminal, coloured one-line records through
 * pino-pretty (a dev dependency, so never in the production image).
 */
export function loggerOptions(app: ConfigType<typeof appConfig>): Params {
  return {
    pinoHttp: {
      ...requestLogOptions(app.logLevel),
      ...(app.prettyLogs && isInstalled('pino-pretty')
        ? {
            transport: {
              target: 'pino-pretty',
              options: {
                translateTime: 'SYS:HH:MM:ss.l',
                ignore: 'pid,hostname,context,req,res,responseTime',
                messageFormat:
                  '{if context}[{context}] {end}{if req.method}{req.method} {req.url} {res.statusCode} {responseTime} ms: {end}{msg}',
              },
            },
          }
        : {}),
    },
    // Path-to-regexp 8 syntax for "every route" (a bare `*` is converted with a warning at boot).
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
  };
}

function isInstalled(module: string): boolean {
  try {
    require.resolve(module);
    return true;
  } catch {
    return false;
  }
}
