/** How the error summary names a field: its label, and for a row of a list the row too ("Website button 2 URL"). */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  title: 'Title',
  profileBio: 'About me',
  tel: 'Phone',
  profileImage: 'Profile image',
  profileImageWidth: 'Profile image width',
  profileImageHeight: 'Profile image height',
  businessName: 'Business name',
  businessLogo: 'Business logo',
  businessLogoWidth: 'Logo width',
  websiteLinks: 'Website buttons',
  videoLink: 'Video link',
  socialLinks: 'Social links',
  products: 'Products',
  gallery: 'Gallery',
  profileBackground: 'Cover image',
  opacityValue: 'Cover opacity',
  profileBackgroundColor: 'Background colour',
  mainFontColor: 'Main font colour',
  profileBioFont: 'Bio font colour',
  profileBioBackground: 'Bio background',
  buttonBackgroundColor: 'Button background',
  buttonFontColor: 'Button font colour',
  buttonBorderColor: 'Button border colour',
  buttonBorderWidth: 'Button border width',
  dropdownFormsBackground: 'Form background',
  sendBtnBackgroundColor: 'Send button background',
  sendBtnFontColor: 'Send button font colour',
};

const ROWS: Readonly<Record<string, { row: string; fields: Readonly<Record<string, string>> }>> = {
  websiteLinks: { row: 'Website button', fields: { buttonName: 'Button name', url: 'URL' } },
  socialLinks: { row: 'Social link', fields: { platform: 'Platform', url: 'URL' } },
  products: { row: 'Product', fields: { name: 'Name', link: 'Link', imageUrl: 'Image' } },
  gallery: { row: 'Gallery image', fields: { imageUrl: '' } },
};

export function fieldLabel(path: string): string {
  const [key = '', index, field] = path.split('.');
  const rows = ROWS[key];
  if (rows && index !== undefined && /^\d+$/.test(index)) {
    const row = `${rows.row} ${Number(index) + 1}`;
    const name = field === undefined ? '' : (rows.fields[field] ?? field);
    return name ? `${row} ${name}` : row;
  }
  return FIELD_LABELS[key] ?? '';
}
