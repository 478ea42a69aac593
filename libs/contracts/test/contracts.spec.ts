import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { z } from 'zod';
import {
  AllEvents,
  CallBackEnquirySchema,
  CheckoutRequestSchema,
  ClickTargetSchema,
  SocialPlatforms,
  HttpRoutes,
  OperationsRoutes,
  PageRoutes,
  type GatewayRoute,
  MessageEnquirySchema,
  Rpc,
  addToCart,
  catalogueColour,
  colourRefusal,
  recolourInCart,
  withDefaultColours,
  buildOpenApiDocument,
  cartTotal,
  decreaseInCart,
  formatRand,
  parseCart,
  removeFromCart,
  responsesOf,
  streamFor,
  toFieldErrors,
} from '../src/index.js';

describe('enquiry schemas', () => {
  it('accepts a complete call-back enquiry and trims it', () => {
    const parsed = CallBackEnquirySchema.parse({ name: ' Thabo ', email: 'thabo@example.co.za', number: '0821234567' });
    assert.deepEqual(parsed, { name: 'Thabo', email: 'thabo@example.co.za', number: '0821234567' });
  });

  it('names every bad field of a call-back enquiry', () => {
    const result = CallBackEnquirySchema.safeParse({ name: '', email: 'not-an-email', number: '082123' });
    assert.equal(result.success, false);
    const errors = toFieldErrors(result.error!);
    assert.deepEqual(Object.keys(errors).sort(), ['email', 'name', 'number']);
    assert.match(errors['number']![0]!, /10-digit/);
    assert.match(errors['email']![0]!, /valid email/);
  });

  it('refuses numbers that are not exactly 10 digits', () => {
    for (const number of ['082123456', '08212345678', '082 123 456', '+27821234567', 'abcdefghij']) {
      assert.equal(CallBackEnquirySchema.safeParse({ name: 'A', email: 'a@b.co', number }).success, false, number);
    }
  });

  it('reports missing fields by name rather than a type error', () => {
    const result = MessageEnquirySchema.safeParse({});
    assert.equal(result.success, false);
    const errors = toFieldErrors(result.error!);
    assert.deepEqual(errors['name'], ['Please enter your name.']);
    assert.deepEqual(errors['message'], ['Please enter a message.']);
  });

  it('puts errors of a non-object body under _form', () => {
    const result = MessageEnquirySchema.safeParse('hello');
    assert.ok(toFieldErrors(result.error!)['_form']);
  });
});

describe('subjects and streams', () => {
  it('keeps every subject under its owner and each stream to its owner’s events', () => {
    for (const def of [...Object.values(Rpc), ...AllEvents]) assert.ok(def.subject.startsWith(`${def.owner}.`));
    assert.deepEqual(streamFor('orders'), {
      name: 'EVENTS_ORDERS',
      subjects: [
        'orders.enquiry.received',
        'orders.order.placed',
        'orders.order.paid',
        'orders.order.state-changed',
        'orders.cards.assigned',
        'orders.proof.ready',
      ],
    });
    assert.deepEqual(streamFor('payments').subjects, [
      'payments.payment.completed',
      'payments.payment.failed',
      'payments.membership.changed',
      'payments.subscription.cancelled',
    ]);
    assert.deepEqual(streamFor('teams').subjects, [
      'teams.member.added',
      'teams.member.updated',
      'teams.member.removed',
      'teams.member.suspended',
      'teams.member.reinstated',
    ]);
  });

  it('never lets a stream capture a request/reply subject', () => {
    const rpcSubjects = new Set(Object.values(Rpc).map((r) => r.subject));
    for (const e of AllEvents) assert.equal(rpcSubjects.has(e.subject), false, e.subject);
  });
});

describe('OpenAPI document', () => {
  it('describes each route with its body and error responses', () => {
    const doc = buildOpenApiDocument('test') as any;
    const op = doc.paths['/api/enquiries/call-back']['post'];
    assert.equal(op.operationId, 'submitCallBackEnquiry');
    assert.equal(op.requestBody.content['application/json'].schema.$ref, '#/components/schemas/CallBackEnquiryInput');
    const body = doc.components.schemas.CallBackEnquiryInput;
    assert.deepEqual(body.required.sort(), ['email', 'name', 'number']);
    assert.equal(body.properties.number.pattern, '^\\d{10}$');
    assert.equal(op.responses['400'].content['application/json'].schema.$ref, '#/components/schemas/ApiError');
    assert.ok(doc.components.schemas.ApiError.properties.fieldErrors);
  });
});

describe('route tables', () => {
  const all: Array<[string, GatewayRoute]> = [
    ...Object.entries(HttpRoutes),
    ...Object.entries(PageRoutes),
    ...Object.entries(OperationsRoutes),
  ];

  it('count by email only where the body has one, and by account only where someone is signed in', () => {
    for (const [name, route] of all) {
      for (const limit of route.limits ?? []) {
        if (limit.per === 'email') {
          assert.ok(route.body instanceof z.ZodObject && 'email' in route.body.shape, `${name}: ${limit.bucket} counts by email`);
        }
        if (limit.per === 'account') assert.notEqual(route.access, 'public', `${name}: ${limit.bucket} counts by account`);
      }
      if (route.signIn) assert.ok(route.access === 'public' && route.body, `${name}: signs in from a body, signed out`);
    }
  });

  it("never maps one method and path twice, and keeps the web app's fallback last", () => {
    const keys = all.map(([, r]) => `${r.method} ${r.path}`);
    assert.equal(new Set(keys).size, keys.length);
    assert.equal(Object.values(PageRoutes).at(-1)!.path, '/{*path}');
  });

  it('derives the 400, 401, 404 and 429 answers from the declarations, keeping a more precise description', () => {
    assert.deepEqual(Object.keys(responsesOf(HttpRoutes.resendVerification)), ['202', '401', '403', '429', '503']);
    assert.equal(responsesOf(HttpRoutes.login)[401]!.description.startsWith('AUTH_INVALID_CREDENTIALS'), true);
    assert.deepEqual(Object.keys(responsesOf(HttpRoutes.uploadImage)), ['201', '400', '401', '403', '404', '413', '429', '503']);
    assert.deepEqual(Object.keys(responsesOf(HttpRoutes.getSession)), ['200']);
    const staffOnly = { ...HttpRoutes.listLeads, access: ['staff'] as const };
    assert.equal(responsesOf(staffOnly)[403]!.description, 'The signed-in account lacks the role this needs');
  });
});

describe('rand and the basket', () => {
  it('shows rand one way everywhere', () => {
    assert.equal(formatRand(109900), 'R1,099.00');
    assert.equal(formatRand(36900), 'R369.00');
    assert.equal(formatRand(4900), 'R49.00');
    assert.equal(formatRand(0), 'R0.00');
    assert.equal(formatRand(123456789), 'R1,234,567.89');
  });

  const pvc = { id: 'pvc-special', name: 'PVC NFC Card Special', normalPrice: 119700, specialPrice: 89900 };
  const bamboo = { id: 'bamboo-card', name: 'Bamboo NFC Card', normalPrice: 45900, specialPrice: null };

  it('adds one to the quantity of an item already in the basket (the old defect, mended)', () => {
    const twice = addToCart(addToCart([], pvc), pvc);
    assert.deepEqual(twice, [{ id: 'pvc-special', name: 'PVC NFC Card Special', price: 119700, specialPrice: 89900, quantity: 2 }]);
    assert.ok(!('item' in twice[0]!));
  });

  it('never lets a quantity fall below 1, removes, and totals at the price paid', () => {
    let cart = addToCart(addToCart(addToCart([], pvc), pvc), bamboo);
    const line = { id: 'pvc-special' };
    cart = decreaseInCart(decreaseInCart(decreaseInCart(cart, line), line), line);
    assert.equal(cart[0]!.quantity, 1);
    assert.equal(cartTotal(cart), 89900 + 45900);
    cart = removeFromCart(cart, line);
    assert.deepEqual(
      cart.map((c) => c.id),
      ['bamboo-card'],
    );
    assert.equal(cartTotal([]), 0);
  });

  it('keeps one line per item and colour; a recoloured line joins its twin; old lines get the first colour', () => {
    let cart = addToCart(addToCart(addToCart([], pvc, 'Black'), pvc, 'White'), pvc, 'Black');
    assert.deepEqual(
      cart.map((c) => [c.colour, c.quantity]),
      [
        ['Black', 2],
        ['White', 1],
      ],
    );
    cart = decreaseInCart(cart, { id: 'pvc-special', colour: 'Black' });
    assert.deepEqual(
      cart.map((c) => [c.colour, c.quantity]),
      [
        ['Black', 1],
        ['White', 1],
      ],
    );
    cart = recolourInCart(cart, { id: 'pvc-special', colour: 'White' }, 'Black');
    assert.deepEqual(
      cart.map((c) => [c.colour, c.quantity]),
      [['Black', 2]],
    );
    const old = parseCart(
      JSON.stringify([
        { id: 'pvc-special', name: 'PVC', price: 119700, specialPrice: 89900, quantity: 1 },
        { id: 'pvc-special', name: 'PVC', price: 119700, specialPrice: 89900, colour: 'Black', quantity: 2 },
      ]),
    );
    assert.equal(old.length, 2);
    const filled = withDefaultColours(old, [{ id: 'pvc-special', colors: ['Black', 'White'] }]);
    assert.deepEqual(
      filled.map((c) => [c.colour, c.quantity]),
      [['Black', 3]],
    );
    assert.equal(withDefaultColours(filled, []), filled);
  });

  it('checks a colour against the item and names the colours it comes in', () => {
    const item = { name: 'PVC NFC Card', colors: ['Black', 'White'] };
    assert.equal(catalogueColour(item, ' white '), 'White');
    assert.equal(catalogueColour(item, 'Gold'), null);
    assert.equal(colourRefusal(item), 'The PVC NFC Card comes in Black or White.');
    assert.equal(colourRefusal({ name: 'Steel', colors: ['Silver', 'Gold', 'Black'] }), 'The Steel comes in Silver, Gold or Black.');
    assert.equal(
      CheckoutRequestSchema.safeParse({
        items: [
          { id: 'pvc-card', colour: 'Black', quantity: 1 },
          { id: 'pvc-card', colour: 'White', quantity: 1 },
        ],
      }).success,
      true,
    );
    assert.equal(
      CheckoutRequestSchema.safeParse({
        items: [
          { id: 'pvc-card', colour: 'Black', quantity: 1 },
          { id: 'pvc-card', colour: 'Black', quantity: 1 },
        ],
      }).success,
      false,
    );
  });

  it('reads a corrupted or hand-edited basket without breaking', () => {
    assert.deepEqual(parseCart(null), []);
    assert.deepEqual(parseCart('not json'), []);
    assert.deepEqual(parseCart('{"id":"x"}'), []);
    const kept = parseCart(
      JSON.stringify([
        { id: 'pvc-special', name: 'PVC', price: 119700, specialPrice: 89900, quantity: 1 },
        { id: 'pvc-special', name: 'PVC', price: 119700, specialPrice: 89900, quantity: 2 },
        { id: 'evil', name: 'x', price: -5, specialPrice: null, quantity: 1 },
        { id: 'bamboo-card', name: 'Bamboo', price: 45900, specialPrice: null, quantity: 0 },
        'junk',
      ]),
    );
    assert.deepEqual(kept, [{ id: 'pvc-special', name: 'PVC', price: 119700, specialPrice: 89900, quantity: 3 }]);
  });
});

describe('click targets', () => {
  // Issue 28, items 3 and 4: the owner's analytics lists clicks per target over any range in one NATS reply; with
  // `social:<any letters>` a script could add 100 new targets a day (the cap per profile and day) and a year's report
  // outgrew one message. The targets are now the closed set the public page sends.
  const pageTargets = [
    ...Array.from({ length: 10 }, (_, i) => `website:${i}`),
    ...SocialPlatforms.map((platform) => `social:${platform}`),
    'share:wa',
    'share:email',
    'share:native',
    'contact:tel',
    'contact:email',
    'exchange',
    'own-profile',
    'lead-form',
  ];

  it('accepts every target the public page sends, and nothing else', () => {
    for (const target of pageTargets) assert.equal(ClickTargetSchema.safeParse(target).success, true, target);
    for (const target of [
      'social:madeup',
      'social:Facebook',
      'social:facebookx',
      'website:10',
      'website:01x',
      'share:sms',
      'exchange ',
      '',
    ])
      assert.equal(ClickTargetSchema.safeParse(target).success, false, target);
    assert.ok(pageTargets.length <= 50, `${pageTargets.length} targets`);
  });
});
