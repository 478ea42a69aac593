/** Replaces a form once it is sent; takes the focus so that keyboard and screen-reader users land on it. */
export function SentMessage({ children }: { children: string }) {
  return (
    <p className="enquiry-sent" role="status" tabIndex={-1} ref={(element) => element?.focus()}>
      {children}
    </p>
  );
}
