export function NotFound() {
  return (
    <div className="p-6">
      <p className="text-sm text-muted-foreground">Not Found</p>
    </div>
  );
}
