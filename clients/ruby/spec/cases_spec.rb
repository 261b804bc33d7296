# The shared cases (clients/spec/cases/*.json, described in its README) against this helper.
require "json"
require "net/smtp"
require "siwa_mock/rspec"

module SharedCases
  REPO = File.expand_path("../../..", __dir__)

  CALLS = {
    "health" => ->(m, _) { m.health },
    "reset" => ->(m, _) { m.reset },
    "sign_in" => lambda { |m, a|
      m.sign_in(a.fetch("user", "alice"), **a.slice("client", "scopes", "nonce", "team_id", "key_id", "key").transform_keys(&:to_sym))
    },
    "client_secret" => ->(m, a) { m.client_secret(a.fetch("client", "com.example.web"), **a.slice("team_id", "key_id", "key").transform_keys(&:to_sym)) },
    "verify" => ->(m, a) { m.verify(a["id_token"], **a.slice("audience", "nonce").transform_keys(&:to_sym)) },
    "clock" => ->(m, _) { m.clock },
    "advance_clock" => ->(m, a) { m.advance_clock(a["by"]) },
    "set_clock" => ->(m, a) { m.set_clock(a["to"]) },
    "freeze_clock" => ->(m, a) { m.freeze_clock(a.fetch("frozen", true)) },
    "add_fault" => ->(m, a) { m.add_fault(a["rule"]) },
    "remove_fault" => ->(m, a) { m.remove_fault(a["fault_id"]) },
    "faults" => ->(m, _) { m.faults },
    "users" => ->(m, _) { m.users },
    "user" => ->(m, a) { m.user(a["user"]) },
    "add_user" => ->(m, a) { m.add_user(a["user"]) },
    "update_user" => ->(m, a) { m.update_user(a["user"], a["changes"]) },
    "revoke_user" => ->(m, a) { m.revoke_user(a["user"]) },
    "delete_user" => ->(m, a) { m.delete_user(a["user"]) },
    "requests" => ->(m, a) { m.requests(**a.fetch("filters", {}).transform_keys(&:to_sym)) },
    "clear_requests" => ->(m, _) { m.clear_requests },
    "mail" => ->(m, a) { m.mail(**a.fetch("filters", {}).transform_keys(&:to_sym)) },
    "wait_for_mail" => ->(m, a) { m.wait_for_mail(timeout: a.fetch("timeout", "5s"), **a.fetch("filters", {}).transform_keys(&:to_sym)) },
    "clear_mail" => ->(m, _) { m.clear_mail },
    "request" => ->(m, a) { m.request(a["method"], a["path"], a["body"]) },
  }.freeze

  def self.at(value, path)
    path.split(".").each do |part|
      value = if part == "#" && value.is_a?(Array) then value.size
              elsif value.is_a?(Array) then value[Integer(part)]
              elsif value.is_a?(Hash) then value[part]
              end
    end
    value
  end

  def self.resolve(value, saved)
    case value
    when /\A\$repo\// then File.join(REPO, value.delete_prefix("$repo/"))
    when /\A\$/
      name, _, path = value.delete_prefix("$").partition(".")
      at(saved[name], path)
    when Hash then value.transform_values { |item| resolve(item, saved) }
    when Array then value.map { |item| resolve(item, saved) }
    else value
    end
  end
end

RSpec.describe "the shared cases", :siwa_mock do
  # One SMTP transaction to the mock's relay; Net::SMTP raises unless it is accepted.
  def send_mail(mock, mail)
    message = "From: <#{mail['from']}>\r\nTo: #{mail['to']}\r\nSubject: #{mail['subject']}\r\n\r\nHello\r\n"
    Net::SMTP.start(mock.smtp_host, mock.smtp_port) { |smtp| smtp.send_message(message, mail["from"], mail["to"]) }
  end

  Dir[File.join(SharedCases::REPO, "clients/spec/cases/*.json")].sort.each do |file|
    it File.basename(file) do
      spec = JSON.parse(File.read(file))
      own = spec["mock"] && SiwaMock.start(scenario: SharedCases.resolve(spec["mock"]["scenario"], {}), smtp: spec["mock"]["smtp"] || false)
      run_steps(own || siwa_mock, File.basename(file), spec["steps"])
    ensure
      own&.stop
    end
  end

  def run_steps(mock, name, steps)
    saved = {}
    steps.each_with_index do |step, index|
      if step.key?("send_mail")
        send_mail(mock, step["send_mail"])
        next
      end
      where = "#{name} step #{index + 1} (#{step['verb']})"
      call = SharedCases::CALLS.fetch(step["verb"]) { raise "#{where}: no runner entry for the verb" }
      args = SharedCases.resolve(step.fetch("args", {}), saved)
      if step.key?("error")
        expect { call.call(mock, args) }.to raise_error(SiwaMock::Error, /#{Regexp.escape(step['error'])}/), where
        next
      end
      result = call.call(mock, args)
      step.fetch("expect", {}).each do |path, expected|
        expect(SharedCases.at(result, path)).to eq(SharedCases.resolve(expected, saved)), "#{where}: #{path} of #{result.inspect}"
      end
      expect(result).to match(Regexp.new(step["matches"])), where if step.key?("matches")
      saved[step["as"]] = result if step["as"]
    end
  end
end
