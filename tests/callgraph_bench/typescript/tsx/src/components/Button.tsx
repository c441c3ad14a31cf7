export interface ButtonProps {
  label: string;
  onClick: () => void;
}

export function Button({ label, onClick }: ButtonProps) {
  return <button onClick={onClick}>{formatLabel(label)}</button>;
}

function formatLabel(label: string): string {
  return label.trim();
}
