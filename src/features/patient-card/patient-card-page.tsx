// Scaffold: replaced by the patient card (issue 11).
export function PatientCardPage() {
  return <h1>Patient card</h1>;
}
