// Scaffold: replaced by the patient list (issue 11).
export function PatientListPage() {
  return <h1>Patients</h1>;
}
