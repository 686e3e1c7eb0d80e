import { INestApplication, Type } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { MetadataScanner, ModulesContainer } from '@nestjs/core';
import { IS_PUBLIC_ROUTE } from '../../common/auth/public.decorator';
import { SuperuserGuard } from '../../common/auth/superuser.guard';

/** What the request pipeline does to one route, read from the same metadata the pipeline obeys. */
export interface RouteFacts {
  /** `@Public()`: the global JWT guard lets it through without a token. */
  isPublic: boolean;
  /** Guarded by SuperuserGuard: a caller who is not a superuser gets 403. */
  superuserOnly: boolean;
  /** A body, query or path argument goes through a DTO or a pipe, whose failures are 422s. */
  validatesInput: boolean;
}

interface RouteArgument {
  index: number;
  pipes?: unknown[];
}

const VALIDATED_SOURCES = [RouteParamtypes.BODY, RouteParamtypes.QUERY, RouteParamtypes.PARAM];
const PLAIN_TYPES: unknown[] = [String, Number, Boolean, Object, Array];

/**
 * The facts of every route, keyed as @nestjs/swagger names operations by default:
 * `<Controller>_<method>`.
 */
export function collectRouteFacts(app: INestApplication): Map<string, RouteFacts> {
  const facts = new Map<string, RouteFacts>();
  const scanner = new MetadataScanner();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (!metatype) continue;
      const controller = metatype as Type;
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined)
          continue;
        facts.set(`${controller.name}_${name}`, {
          isPublic: Boolean(
            Reflect.getMetadata(IS_PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(IS_PUBLIC_ROUTE, controller),
          ),
          superuserOnly: [handler, controller].some((target) =>
            ((Reflect.getMetadata(GUARDS_METADATA, target) ?? []) as unknown[]).includes(SuperuserGuard),
          ),
          validatesInput: validatesInput(controller, name),
        });
      }
    }
  }
  return facts;
}

function validatesInput(controller: Type, method: string): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<
    string,
    RouteArgument
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ?? []) as unknown[];
  return Object.entries(args).some(([key, argument]) => {
    const source = Number(key.split(':')[0]);
    if (!VALIDATED_SOURCES.includes(source)) return false;
    return (argument.pipes ?? []).length > 0 || !PLAIN_TYPES.includes(types[argument.index]);
  });
}
