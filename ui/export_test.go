package ui

// CheckReadmeSection lets the external tests (package ui_test) check README.md's other
// generated sections, such as the replay report's key table.
var CheckReadmeSection = checkReadmeSection
