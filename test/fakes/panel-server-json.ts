// A realistic game server config (server.json) used by the panel and SFTP deploy tests.
export const SAMPLE_SERVER_JSON = `{
  "bindAddress": "0.0.0.0",
  "bindPort": 2001,
  "publicAddress": "203.0.113.7",
  "publicPort": 2001,
  "a2s": { "address": "0.0.0.0", "port": 17777 },
  "rcon": { "address": "0.0.0.0", "port": 19999, "password": "rconpw", "permission": "admin", "blacklist": [], "whitelist": [] },
  "game": {
    "name": "Loadout test server",
    "password": "",
    "passwordAdmin": "adminpw",
    "admins": ["76561198000000000"],
    "scenarioId": "{ECC61978EDCC2B5A}Missions/23_Campaign.conf",
    "maxPlayers": 64,
    "visible": true,
    "crossPlatform": true,
    "supportedPlatforms": ["PLATFORM_PC", "PLATFORM_XBL"],
    "gameProperties": { "serverMaxViewDistance": 2500, "disableThirdPerson": false, "fastValidation": true, "battlEye": true, "missionHeader": { "m_iPlayerCount": 64 } },
    "modsRequiredByDefault": true,
    "mods": [{ "modId": "0000000000000001", "name": "Old mod", "version": "1.0.0", "required": true }]
  },
  "operating": { "lobbyPlayerSynchronise": true, "joinQueue": { "maxSize": 50 }, "slotReservationTimeout": 60 }
}
`;
