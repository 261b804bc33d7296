import ScenarioFormat

extension ScenarioLoader {
    /// `account: individual | organization` (default organization) and
    /// `email_sources: [{domain | address, spf, dkim}]` of one team (docs/scenarios.md), with Apple's
    /// cap on the number of sources for the account type.
    func readEmailSources(_ map: MappingReader, path: String, _ context: LoadContext) -> [EmailSource] {
        var limit = EmailSourceLimit.organization
        if let account = context.read(
            map.optional("account"), at: "\(path).account", { node throws(ScenarioDiagnostic) in try node.string() })
        {
            switch account {
            case "individual": limit = EmailSourceLimit.individual
            case "organization": limit = EmailSourceLimit.organization
            default:
                context.report(
                    map.optional("account")!, "expected 'individual' or 'organization', found '\(account)'")
            }
        }
        let listNode = map.optional("email_sources")
        guard let items = context.sequence(listNode, at: "\(path).email_sources") else { return [] }
        if items.count > limit, let listNode {
            context.report(
                listNode,
                "\(items.count) email sources; Apple allows at most \(limit) for an "
                    + (limit == EmailSourceLimit.individual ? "individual" : "organization") + " account")
        }
        var seen: Set<String> = []
        return items.enumerated().compactMap { index, item -> EmailSource? in
            let itemPath = "\(path).email_sources[\(index)]"
            guard let source = context.mapping(item, allowed: ["domain", "address", "spf", "dkim"], at: itemPath)
            else { return nil }
            let bool = { (key: String) -> Bool in
                context.read(source.optional(key), at: "\(itemPath).\(key)") { node throws(ScenarioDiagnostic) in
                    try node.bool()
                } ?? true
            }
            let kind: EmailSource.Kind
            switch (source.optional("domain"), source.optional("address")) {
            case (let node?, nil):
                guard let domain = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() }) else {
                    return nil
                }
                guard Self.isDomainName(domain) else {
                    context.report(node, "'\(domain)' is not a domain name")
                    return nil
                }
                kind = .domain(domain.lowercased())
            case (nil, let node?):
                guard let address = context.read(node, { node throws(ScenarioDiagnostic) in try node.string() }) else {
                    return nil
                }
                let parts = address.split(separator: "@", omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, Self.isDomainName(String(parts[1])),
                    AddrSpec.isValid(address)
                else {
                    context.report(node, "'\(address)' is not an email address")
                    return nil
                }
                kind = .address(address.lowercased())
            case (_?, _?):
                context.report(item, "give either 'domain' or 'address', not both")
                return nil
            case (nil, nil):
                context.report(item, "missing required key 'domain' (or 'address')")
                return nil
            }
            let result = EmailSource(kind, passesSPF: bool("spf"), passesDKIM: bool("dkim"))
            guard seen.insert(result.label).inserted else {
                context.report(item, "\(result.label) is registered twice")
                return nil
            }
            return result
        }
    }

    /// Letters, digits and hyphens in dot-separated labels, at least two labels.
    static func isDomainName(_ text: String) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && text.utf8.count <= 253
            && labels.allSatisfy { label in
                !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            }
    }
}
