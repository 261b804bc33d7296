import ScenarioModel

extension UserProfile {
    /// Refuses a runtime change that leaves the user over one of the model's caps
    /// (`UserProfile.oversizedField`) or with an address that is not one (`malformedAddress`):
    /// `.invalid`, naming the field.
    func checkSize() throws(ProviderChangeError) {
        if let field = oversizedField {
            throw ProviderChangeError(.invalid, field: field, "longer than \(Self.maximumFieldBytes) bytes")
        }
        if let (field, problem) = malformedAddress { throw ProviderChangeError(.invalid, field: field, problem) }
    }
}
