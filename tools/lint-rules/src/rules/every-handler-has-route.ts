import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/** Nest's decorators that map a handler to a method and path by themselves. */
const HTTP_METHOD_DECORATORS = new Set(['Get', 'Post', 'Put', 'Delete', 'Patch', 'Options', 'Head', 'All', 'Search', 'RequestMapping']);

/** The gateway's decorator that serves a handler as its entry in a route table says. */
const ROUTE_DECORATOR = 'Route';

type MessageIds = 'missingRoute' | 'rawHttpDecorator';

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/**
 * Every method of a Nest `@Controller` class carries `@Route(<route table entry>)`, and none uses Nest's own HTTP
 * method decorators (`@Get`, `@Post`, ...). The route tables in libs/contracts then decide, in one place, the method,
 * path, status, body validation, who may call and the rate limits of everything the gateway serves; a handler added
 * without them does not lint. Helpers belong in services, not in controllers.
 */
export const everyHandlerHasRoute: TSESLint.RuleModule<MessageIds> = {
  meta: {
    type: 'problem',
    docs: { description: 'Every controller method carries @Route(...) and no Nest HTTP method decorator' },
    schema: [],
    messages: {
      missingRoute:
        '{{name}} is a controller method without @Route(...): serve it from its route table entry (method, path, status, body, access, limits), or move it out of the controller.',
      rawHttpDecorator: '@{{decorator}} maps a route outside the route tables: use @Route(<table entry>) instead.',
    },
  },
  defaultOptions: [],
  create(context) {
    /** Local names of what is imported from @nestjs/common, to the names it exports them as. */
    const nest = new Map<string, string>();
    const nestNamespaces = new Set<string>();
    const classes: ClassNode[] = [];

    const nestNameOf = (decorator: TSESTree.Decorator): string | undefined => {
      const target = decorator.expression.type === 'CallExpression' ? decorator.expression.callee : decorator.expression;
      if (target.type === 'Identifier') return nest.get(target.name);
      if (
        target.type === 'MemberExpression' &&
        target.object.type === 'Identifier' &&
        nestNamespaces.has(target.object.name) &&
        target.property.type === 'Identifier'
      ) {
        return target.property.name;
      }
      return undefined;
    };

    const isRoute = (decorator: TSESTree.Decorator): boolean =>
      decorator.expression.type === 'CallExpression' &&
      decorator.expression.callee.type === 'Identifier' &&
      decorator.expression.callee.name === ROUTE_DECORATOR;

    const nameOf = (method: TSESTree.MethodDefinition): string => {
      if (method.key.type === 'Identifier') return method.key.name;
      if (method.key.type === 'PrivateIdentifier') return `#${method.key.name}`;
      return context.sourceCode.getText(method.key);
    };

    return {
      ImportDeclaration(node) {
        if (node.source.value !== '@nestjs/common') return;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportSpecifier') {
            nest.set(specifier.local.name, specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value);
          } else {
            nestNamespaces.add(specifier.local.name);
          }
        }
      },
      ClassDeclaration(node) {
        classes.push(node);
      },
      ClassExpression(node) {
        classes.push(node);
      },
      // Imports may follow a class in the source: judge the classes once every import is known.
      'Program:exit'() {
        for (const cls of classes) {
          if (!cls.decorators.some((d) => nestNameOf(d) === 'Controller')) continue;
          for (const member of cls.body.body) {
            if (member.type !== 'MethodDefinition' || member.kind !== 'method') continue;
            for (const decorator of member.decorators) {
              const nestName = nestNameOf(decorator);
              if (nestName && HTTP_METHOD_DECORATORS.has(nestName)) {
                context.report({ node: decorator, messageId: 'rawHttpDecorator', data: { decorator: nestName } });
              }
            }
            if (!member.decorators.some(isRoute)) {
              context.report({ node: member.key, messageId: 'missingRoute', data: { name: nameOf(member) } });
            }
          }
        }
      },
    };
  },
};
