# The helper's own spec, against the real binary (clients/run.sh sets SIWA_MOCK_BINARY).
require "net/http"
require "tmpdir"
require "siwa_mock/rspec"

RSpec.describe "siwa_mock", :siwa_mock do
  it "signs in with verified tokens, scopes and nonce" do
    result = siwa_mock.sign_in("alice", scopes: %w[name email], nonce: "n-1")
    expect(result["claims"]).to include("email" => "alice@example.com", "nonce" => "n-1", "aud" => "com.example.web")
    expect(result["user"]["name"]["firstName"]).to eq("Alice")
    claims = siwa_mock.verify(result["token_response"]["id_token"], audience: "com.example.web", nonce: "n-1")
    expect(claims["sub"]).to eq(result["claims"]["sub"])
  end

  it "refuses a tampered token" do
    alice = siwa_mock.sign_in("alice")["token_response"]["id_token"].split(".")
    bob = siwa_mock.sign_in("bob")["token_response"]["id_token"].split(".")
    # bob's claims under alice's signature
    expect { siwa_mock.verify([alice[0], bob[1], alice[2]].join(".")) }.to raise_error(SiwaMock::Error, /verify failed/)
  end

  it "mints a client secret the token endpoint accepts" do
    response = Net::HTTP.post_form(URI("#{siwa_mock.url}/auth/token"),
                                   "grant_type" => "client_credentials", "scope" => "user.migration",
                                   "client_id" => "com.example.web", "client_secret" => siwa_mock.client_secret)
    expect(response.code).to eq("200")
    expect(JSON.parse(response.body)).to include("access_token")
  end

  it "fails sign-in with the mock's answer under a fault" do
    siwa_mock.add_fault("id" => "token-down", "match" => "POST /auth/token", "status" => 503)
    expect { siwa_mock.sign_in("alice") }.to raise_error(SiwaMock::Error, /503/)
    siwa_mock.remove_fault("token-down")
    expect(siwa_mock.sign_in("alice")["claims"]["aud"]).to eq("com.example.web")
  end

  it "moves the clock, manages users and reads the journal" do
    before = siwa_mock.clock["epoch_seconds"]
    siwa_mock.advance_clock("1d")
    expect(siwa_mock.clock["epoch_seconds"]).to be >= before + 86_400
    siwa_mock.add_user("id" => "dave", "email" => "dave@example.com")
    expect(siwa_mock.sign_in("dave")["claims"]["sub"]).to eq(siwa_mock.user("dave")["sub"])
    siwa_mock.revoke_user("dave")
    expect(siwa_mock.requests(path: "/auth/token", user: "dave").last["status"]).to eq(200)
    siwa_mock.clear_requests
    expect(siwa_mock.requests).to eq([])
  end

  it "starts each example from the scenario" do
    expect(siwa_mock.requests).to eq([])
    expect { siwa_mock.user("dave") }.to raise_error(SiwaMock::Error, /404/)
  end
end

RSpec.describe SiwaMock do
  it "says how to get a binary when the path is wrong" do
    expect { SiwaMock.start(binary: "/nonexistent/siwa-mock") }
      .to raise_error(SiwaMock::Error, /siwa-mock binary not found.*swift build.*SIWA_MOCK_BINARY/)
  end

  it "shows the mock's stderr when it cannot start" do
    Dir.mktmpdir do |dir|
      File.write(File.join(dir, "broken.yaml"), "users:\n  - id: [\n")
      expect { SiwaMock.start(scenario: File.join(dir, "broken.yaml")) }
        .to raise_error(SiwaMock::Error, /did not start.*broken\.yaml:/m)
    end
  end
end
