import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { Button, FormAlert, TextArea, TextField, classNames } from '../src/index.js';

// The shared controls as the server renders them: the classes the styles rely on, and the accessible wiring of
// label, hint and error (aria-describedby, aria-invalid) that the browser tests can only see through a page.

describe('classNames', () => {
  it('joins the truthy names with single spaces', () => {
    expect(classNames('a', false, null, undefined, '', 'b')).toBe('a b');
    expect(classNames()).toBe('');
  });
});

describe('Button', () => {
  it('is a primary type="button" unless told otherwise, keeping its own class', () => {
    expect(renderToStaticMarkup(<Button>Save</Button>)).toBe('<button type="button" class="ui-button ui-button--primary">Save</button>');
    expect(
      renderToStaticMarkup(
        <Button type="submit" variant="secondary" className="wide">
          Go
        </Button>,
      ),
    ).toBe('<button type="submit" class="ui-button ui-button--secondary wide">Go</button>');
  });
});

describe('TextField', () => {
  it('labels its input, without aria-invalid or a description when there is no hint or error', () => {
    const html = renderToStaticMarkup(<TextField id="email" label="Email" name="email" />);
    expect(html).toBe(
      '<div class="ui-field"><label class="ui-field__label" for="email">Email</label><input id="email" type="text" class="ui-field__control" name="email"/></div>',
    );
  });

  it('describes the input by its hint and its error, in that order, and marks it invalid', () => {
    const html = renderToStaticMarkup(
      <TextField id="tel" label="Phone" hint="With the country code" error="Not a phone number" type="tel" />,
    );
    expect(html).toContain('class="ui-field ui-field--invalid"');
    expect(html).toContain('type="tel"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="tel-hint tel-error"');
    expect(html).toContain('<p id="tel-hint" class="ui-field__hint">With the country code</p>');
    expect(html).toContain('<p id="tel-error" class="ui-field__error">Not a phone number</p>');
    expect(html.indexOf('tel-hint"')).toBeLessThan(html.indexOf('<input'));
    expect(html.indexOf('<input')).toBeLessThan(html.indexOf('id="tel-error"'));
  });

  it('keeps a description the caller gave after its own, and generates an id when given none', () => {
    const html = renderToStaticMarkup(<TextField label="Name" error="Required" aria-describedby="rules" />);
    const id = /<input[^>]* id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`for="${id}"`);
    expect(html).toContain(`aria-describedby="${id}-error rules"`);
  });
});

describe('TextArea', () => {
  it('wires its label and error like a text field', () => {
    const html = renderToStaticMarkup(<TextArea id="bio" label="About you" error="Too long" />);
    expect(html).toContain('<label class="ui-field__label" for="bio">About you</label>');
    expect(html).toContain('<textarea');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="bio-error"');
  });
});

describe('FormAlert', () => {
  it('announces a message with role="alert" and renders nothing without one', () => {
    expect(renderToStaticMarkup(<FormAlert>Wrong password</FormAlert>)).toBe(
      '<div role="alert" class="ui-form-alert">Wrong password</div>',
    );
    for (const empty of [undefined, null, false, '']) expect(renderToStaticMarkup(<FormAlert>{empty}</FormAlert>)).toBe('');
  });
});
