# The hostile-server cases (clients/spec/hostile_server.py; issue 36, findings 5 and 6).
require "siwa_mock"
require "tmpdir"

RSpec.describe "siwa_mock against a hostile server" do
  before(:all) do
    @server = IO.popen(["python3", File.expand_path("../../spec/hostile_server.py", __dir__)], "r+")
    line = @server.gets.to_s.strip
    raise "hostile server printed #{line.inspect}" unless line.start_with?("hostile listening on ")
    @hostile = SiwaMock.new(line.delete_prefix("hostile listening on "), admin_token: "t0ken")
  end

  after(:all) do
    @server.close_write
    Process.wait(@server.pid)
  end

  it "meets the overall deadline against a server dripping one byte per half second" do
    began = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    expect { @hostile.request("GET", "/mock/drip", timeout: 1) }
      .to raise_error(SiwaMock::Error, %r{\AGET http://127\.0\.0\.1:\d+/mock/drip: no complete answer within 1s\z})
    expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - began).to be < 10 # a per-read timeout waits the 20 s of drip
  end

  it "cuts an endless answer at 16 MiB" do
    expect { @hostile.request("GET", "/mock/endless", timeout: 30) }
      .to raise_error(SiwaMock::Error, "GET /mock/endless: the answer is larger than 16 MiB; refused")
  end

  it "follows no redirect, and the token stays" do
    expect { @hostile.request("GET", "/mock/redirect") }
      .to raise_error(SiwaMock::Error, %r{\AGET /mock/redirect answered 302 \(a redirect to http://127\.0\.0\.1:\d+/mock/landing\): not followed})
    expect(@hostile.request("GET", "/mock/stolen")).to eq("authorization" => [], "requests" => 0)
  end
end

RSpec.describe "a run of the binary" do
  it "has a deadline" do
    Dir.mktmpdir do |dir|
      binary = File.join(dir, "siwa-mock")
      File.write(binary, "#!/bin/sh\nexec sleep 30\n")
      File.chmod(0o755, binary)
      stub_const("SiwaMock::RUN_TIMEOUT", 0.2)
      began = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      expect { SiwaMock.new("http://127.0.0.1:9", binary: binary).client_secret }
        .to raise_error(SiwaMock::Error, /\Asiwa-mock client-secret did not finish within 0.2s/)
      expect(Process.clock_gettime(Process::CLOCK_MONOTONIC) - began).to be < 10
    end
  end
end
