import { describe, it } from '@jest/globals';
import { RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { everyHandlerHasRoute } from '../src/rules/every-handler-has-route.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });
const rule = everyHandlerHasRoute as unknown as Rule.RuleModule;

const nest = `import { Controller, Get, Post, Res, Inject } from '@nestjs/common';\nimport { Route } from '../http/route.js';\n`;

tester.run('every-handler-has-route', rule, {
  valid: [
    {
      name: 'every method of a controller carries @Route',
      code: `${nest}
        @Controller()
        export class Accounts {
          constructor(@Inject(Flows) private readonly flows: Flows) {}
          @Route(HttpRoutes.login)
          login(@Res({ passthrough: true }) res: Response) { return this.flows.login(res); }
          @Route(PageRoutes.webApp)
          async page() {}
        }`,
    },
    {
      name: 'classes that are not controllers may have any methods',
      code: `${nest}
        @Injectable()
        export class Flows {
          @Get('not-a-route') helper() {}
          plain() {}
        }`,
    },
    {
      name: 'a Get that is not Nest’s is none of our business',
      code: `import { Get } from './cache.js';\nimport { Controller } from '@nestjs/common';
        @Controller()
        export class Cached {
          @Get('key') @Route(HttpRoutes.listCatalogue) list() {}
        }`,
    },
    {
      name: 'getters and the constructor are not handlers',
      code: `${nest}
        @Controller()
        export class Health {
          constructor() {}
          get name() { return 'health'; }
          @Route(OperationsRoutes.live) live() { return { status: 'ok' }; }
        }`,
    },
  ],
  invalid: [
    {
      name: 'a raw Nest HTTP decorator, even next to @Route',
      code: `${nest}
        @Controller()
        export class Enquiries {
          @Post('/api/enquiries') @Route(HttpRoutes.submitCallBackEnquiry) callBack() {}
        }`,
      errors: [{ messageId: 'rawHttpDecorator', data: { decorator: 'Post' } }],
    },
    {
      name: 'a handler mapped the old way: raw decorator and no @Route',
      code: `${nest}
        @Controller()
        export class Health {
          @Get('health') ready() {}
        }`,
      errors: [
        { messageId: 'rawHttpDecorator', data: { decorator: 'Get' } },
        { messageId: 'missingRoute', data: { name: 'ready' } },
      ],
    },
    {
      name: 'a helper method left in a controller',
      code: `${nest}
        @Controller()
        export class Accounts {
          @Route(HttpRoutes.login) login() { return this.signIn(); }
          private signIn() {}
          static #count() {}
        }`,
      errors: [
        { messageId: 'missingRoute', data: { name: 'signIn' } },
        { messageId: 'missingRoute', data: { name: '#count' } },
      ],
    },
    {
      name: 'renamed and namespace imports of Nest are recognised',
      code: `import { Controller as C, Get as Read } from '@nestjs/common';\nimport * as common from '@nestjs/common';
        @C('x')
        export class A {
          @Read() a() {}
          @common.Put() @Route(HttpRoutes.saveProfile) b() {}
        }
        @common.Controller()
        export class B {
          @common.RequestMapping({ path: 'x' }) c() {}
        }`,
      errors: [
        { messageId: 'rawHttpDecorator', data: { decorator: 'Get' } },
        { messageId: 'missingRoute', data: { name: 'a' } },
        { messageId: 'rawHttpDecorator', data: { decorator: 'Put' } },
        { messageId: 'rawHttpDecorator', data: { decorator: 'RequestMapping' } },
        { messageId: 'missingRoute', data: { name: 'c' } },
      ],
    },
    {
      name: 'a controller class expression',
      code: `${nest}
        export const Anonymous = @Controller() class {
          @Get() list() {}
        };`,
      errors: [{ messageId: 'rawHttpDecorator' }, { messageId: 'missingRoute' }],
    },
  ],
});
