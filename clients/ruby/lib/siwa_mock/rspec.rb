# RSpec: `siwa_mock` in examples and groups tagged :siwa_mock — one mock for the run (started on first
# use, stopped after the suite), reset to its scenario before each tagged example.
#
#   require "siwa_mock/rspec"
#   RSpec.describe "sign-in", :siwa_mock do
#     it("signs alice in") { expect(siwa_mock.sign_in("alice")["claims"]["aud"]).to eq("com.example.web") }
#   end
#
# The mock is $SIWA_MOCK_URL when set, else the binary (SiwaMock::RSpec.binary, $SIWA_MOCK_BINARY, the
# platform gem's, else siwa-mock on PATH) started with --port 0, serving SiwaMock::RSpec.scenario (or $SIWA_MOCK_SCENARIO).
# SiwaMock::RSpec.smtp = true adds the relay's SMTP listener (siwa_mock.smtp_host, .smtp_port; with
# $SIWA_MOCK_URL they come from $SIWA_MOCK_SMTP).
require "rspec/core"
require "siwa_mock"

class SiwaMock
  module RSpec
    class << self
      attr_accessor :binary, :scenario, :smtp

      def mock
        @mock ||= SiwaMock.start_or_connect(binary: binary, scenario: scenario, smtp: smtp || false)
      end

      def stop
        @mock&.stop
        @mock = nil
      end
    end

    module Helpers
      def siwa_mock = SiwaMock::RSpec.mock
    end
  end
end

RSpec.configure do |config|
  config.include SiwaMock::RSpec::Helpers, :siwa_mock
  config.before(:each, :siwa_mock) { SiwaMock::RSpec.mock.reset }
  config.after(:suite) { SiwaMock::RSpec.stop }
end
