export { Button, type ButtonProps, type ButtonVariant } from './button.js';
export { Container, type ContainerProps } from './container.js';
export { FormAlert, type FormAlertProps } from './form-alert.js';
export { Notice, type NoticeProps, type NoticeTone } from './notice.js';
export { TextArea, type TextAreaProps } from './text-area.js';
export { TextField, type TextFieldProps } from './text-field.js';
export { classNames } from './class-names.js';
export { VisuallyHidden, type VisuallyHiddenProps } from './visually-hidden.js';
export {
  AlertDialogView,
  DialogHost,
  confirm,
  notice,
  type AlertDialogViewProps,
  type ConfirmOptions,
  type NoticeOptions,
} from './dialog.js';
