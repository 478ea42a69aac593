import { UpgradeMessages } from '@digicard/contracts';
import { can } from '@digicard/domain';
import { Button, TextField, VisuallyHidden } from '@digicard/ui';
import { FieldError, UpgradeNotice } from '../fields';
import { ImageUpload } from '../image-upload';
import { fieldId } from '../../utils/validation';
import { changeThenFocus, patchRow, type DocumentSectionProps } from './section-props';

export const MAX_PRODUCTS = 20;

/** Products (DigiGold): rows of name, link and image. Other tiers see the upgrade message. */
export function ProductsSection({ doc, errors, membership, edit }: DocumentSectionProps) {
  if (!can(membership, 'products')) {
    return (
      <>
        <UpgradeNotice>{UpgradeMessages.products}</UpgradeNotice>
        {doc.products.length > 0 ? (
          <p className="pe-note">Your saved products are not shown on your profile with your current membership.</p>
        ) : null}
      </>
    );
  }
  const products = doc.products;
  const add = () =>
    changeThenFocus(
      () => edit((d) => ({ ...d, products: [...d.products, { name: '', link: '', imageUrl: '' }] }), 'products'),
      `products.${products.length}.name`,
    );
  const remove = (index: number) =>
    changeThenFocus(() => edit((d) => ({ ...d, products: d.products.filter((_, i) => i !== index) }), 'products'), 'products.add');
  const change = (index: number, patch: Partial<(typeof products)[number]>, key: string) =>
    edit((d) => ({ ...d, products: patchRow(d.products, index, patch) }), `products.${index}.${key}`);

  return (
    <fieldset className="pe-list">
      <legend className="pe-list__legend">Product list</legend>
      <p className="ui-field__hint">Products show on your profile once they have a name and a link.</p>
      {products.length === 0 ? <p className="pe-list__empty">No products yet.</p> : null}
      {products.map((product, index) => (
        <fieldset key={index} className="pe-row">
          <legend className="pe-row__legend">{`Product ${index + 1}`}</legend>
          <div className="pe-row__fields">
            <TextField
              id={fieldId(`products.${index}.name`)}
              label="Name"
              value={product.name}
              maxLength={80}
              error={errors[`products.${index}.name`]}
              onChange={(event) => change(index, { name: event.currentTarget.value }, 'name')}
            />
            <TextField
              id={fieldId(`products.${index}.link`)}
              label="Link"
              type="url"
              inputMode="url"
              placeholder="https://…"
              value={product.link}
              maxLength={2000}
              error={errors[`products.${index}.link`]}
              onChange={(event) => change(index, { link: event.currentTarget.value }, 'link')}
            />
          </div>
          <ImageUpload
            label="Image"
            field="Product image"
            purpose="product"
            path={`products.${index}.imageUrl`}
            hint="JPG, PNG or WebP, up to 2MB."
            currentUrl={product.imageUrl}
            savedAtOnce={false}
            error={errors[`products.${index}.imageUrl`]}
            onStored={(url) => change(index, { imageUrl: url }, 'imageUrl')}
            onRemove={() => change(index, { imageUrl: '' }, 'imageUrl')}
          />
          <Button variant="secondary" className="pe-small-button" onClick={() => remove(index)}>
            Remove <VisuallyHidden>{`product ${index + 1}`}</VisuallyHidden>
          </Button>
        </fieldset>
      ))}
      <Button id={fieldId('products.add')} variant="secondary" disabled={products.length >= MAX_PRODUCTS} onClick={add}>
        Add product
      </Button>
      {products.length >= MAX_PRODUCTS ? <p className="ui-field__hint">{`At most ${MAX_PRODUCTS} products.`}</p> : null}
      <FieldError id="pe-products-error" error={errors['products']} />
    </fieldset>
  );
}
